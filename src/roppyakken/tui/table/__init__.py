"""The parts of the table screen: choosing a move, pacing the steps, drawing the board and the prompt."""

"""The rules engine and what it stands on: RULES.md clause by clause, records, cards, options,
the kernel, invariants and properties."""

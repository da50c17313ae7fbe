"""The research environments: observations, masks, fast arrays, the compiled kernel, the learned baseline."""

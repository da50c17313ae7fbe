"""The repository's tools and commands: the command line, installs, docs, catalogs, devtools,
import layers, the skip policy, benchmarks."""

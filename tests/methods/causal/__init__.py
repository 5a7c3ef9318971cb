"""Validation tests of the causal-inference method tools."""

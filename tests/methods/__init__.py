"""Validation tests of the paper method tools."""

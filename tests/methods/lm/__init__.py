"""Validation tests of the language-model method tools."""

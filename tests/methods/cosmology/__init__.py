"""Tests of the supernova cosmology method tools."""

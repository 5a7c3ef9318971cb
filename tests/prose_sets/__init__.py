"""What the prose task sets (``tests/understanding_*/``) share: the checks of a set and the writers of its data.

``checks`` holds the checks of a set itself (its manifest, files, coverage, wording and data), not of the reader;
a set's ``test_set.py`` states what is its own (its folder, the earlier sets it must not borrow from, its coverage
numbers) and inherits every check. ``writing`` holds the file writers a set's ``make_data.py`` uses, so that each
file's bytes depend only on the set's own simulation code, and the few simulation helpers several sets share.
"""

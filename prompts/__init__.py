"""Agent prompts (package data): one markdown file per agent, YAML front matter + template."""

__all__: list[str] = []  # package data only

"""Agent prompts (package data): one markdown file per agent, YAML front matter + template."""

"""`migrate suggest`: draft a plan that moves a legacy kernel package into logical groups.

`classify` picks a group from a module's computation; `draft` decides every file's
destination; `yaml_out` renders the plan with the evidence as comments.
"""

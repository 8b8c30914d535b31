"""What we know about SGLang's kernel layout, in one leaf package (it imports nothing else
of `migrate`): the package names, the group list, the test-directory layout, the CI
registration convention, and the classifier that picks a module's group from its signals.

`rules`, `suggest`, `tests_split` and `rewrite` read this knowledge from here, so a change
to the layout (a new group, a new test directory) is made once.
"""

"""Map the design's top-level folders into the one ``cmbagent`` import namespace.

``agents/`` becomes ``cmbagent.agents``, ``tools/methods/cosmology/`` becomes
``cmbagent.tools.methods.cosmology`` and so on.  Sub-packages are discovered, so a
new method family needs no edit here.  Editable and regular installs both work.
"""

from setuptools import find_packages, setup

ROOTS = {
    "cmbagent": "cmbagent",
    "cmbagent.agents": "agents",
    "cmbagent.planner": "planner",
    "cmbagent.tools": "tools",
    "cmbagent.sandbox": "sandbox",
    "cmbagent.prompts": "prompts",
}

packages = []
package_dir = {}
for package, folder in ROOTS.items():
    package_dir[package] = folder
    packages.append(package)
    packages.extend(f"{package}.{sub}" for sub in find_packages(folder))

setup(packages=sorted(set(packages)), package_dir=package_dir)

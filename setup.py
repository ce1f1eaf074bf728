"""Only what pyproject.toml cannot say: the packages, with the top-level assets/ and layouts/ folders
shipped inside the generator package as generator/_data/assets and generator/_data/layouts
(generator/bundle.py finds them there in an installed wheel; a checkout reads the folders
themselves). Everything else about the package is in pyproject.toml."""
from setuptools import find_packages, setup

#: Top-level data folders -> the package they are installed as.
DATA = {"generator._data.assets": "assets", "generator._data.layouts": "layouts"}

setup(packages=find_packages(include=["generator", "generator.*", "companion", "companion.*"]) + list(DATA),
      package_dir=DATA)

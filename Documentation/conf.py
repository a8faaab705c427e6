# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx's configuration for gpuprof's documentation: make htmldocs at
# the top, or make -C Documentation html (Documentation/Makefile passes
# kerneldoc_bin, the kernel's scripts/kernel-doc from its cache).

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "sphinx"))

project = "gpuprof"
copyright = "the gpuprof authors"
extensions = ["kerneldoc"]

root_doc = "index"
source_suffix = ".rst"
exclude_patterns = ["out", "ABI", "sphinx"]

# Literal blocks are shell sessions, files and diagrams, not Python.
highlight_language = "none"

# The kernel-doc directive (sphinx/kerneldoc.py): file names in it are
# relative to the top of the repository.
kerneldoc_srctree = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
kerneldoc_bin = os.environ.get("KERNELDOC")

html_theme = "alabaster"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None

# Annotations of the kernel's declarations that the C domain is to read
# as attributes, not as names.
c_id_attributes = ["__user", "__iomem", "__rcu", "__must_check",
                   "__init", "__exit", "__always_inline", "noinline"]

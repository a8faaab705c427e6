# SPDX-License-Identifier: GPL-2.0-only
"""The ``kernel-doc`` directive: documentation comments of the sources.

    .. kernel-doc:: module/target.c
       :doc: Targets and their lifetime

puts the text of a source file's kernel-doc comments into the page, as
the kernel's Documentation/ does: the file is read by the kernel's
scripts/kernel-doc (config value ``kerneldoc_bin``; Documentation/Makefile
takes it from the linux-source tarball) with ``-rst`` and the reST it
prints is parsed in place of the directive.  The file is named relative
to ``kerneldoc_srctree`` (the top of the repository).  One option picks
what is taken, none taking everything:

``:doc: TITLE``
    the ``DOC: TITLE`` section, without its title
``:functions: NAME ...``
    the comments of these functions, structures, enums or typedefs; with
    no names, every such comment and no DOC section
``:internal:`` / ``:export:``
    the comments of the symbols the file does not / does export with
    EXPORT_SYMBOL (the module exports nothing, so ``:internal:`` is all)

Whatever kernel-doc says on stderr (a comment it cannot parse, a name it
does not find) becomes a Sphinx warning at the directive, so ``-W`` fails
the build on it.

Links written for docutils as ```page.rst <page.rst>`__`` (the man pages
are also built by rst2man, which knows no ``:doc:``) are pointed at the
built page, ``page.html``, by the HTML builders.
"""

import os
import re
import subprocess

import sphinx
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import ViewList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

logger = logging.getLogger(__name__)

LINENO = re.compile(r"^\.\. LINENO (\d+)$")
RST_LINK = re.compile(r"^(?![A-Za-z][A-Za-z0-9+.-]*:)([^#?]+)\.rst(#.*)?$")


class KernelDoc(SphinxDirective):
    required_arguments = 1
    optional_arguments = 0
    has_content = False
    option_spec = {
        "doc": directives.unchanged_required,
        "functions": directives.unchanged,
        "internal": directives.flag,
        "export": directives.flag,
    }

    def command(self, path):
        cmd = ["perl", self.config.kerneldoc_bin, "-rst", "-enable-lineno",
               "-sphinx-version", sphinx.__version__]
        chosen = [o for o in ("doc", "functions", "internal", "export")
                  if o in self.options]
        if len(chosen) > 1:
            raise self.error("kernel-doc: one of :doc:, :functions:, "
                             ":internal:, :export: at most")
        if "doc" in self.options:
            cmd += ["-function", self.options["doc"]]
        elif "functions" in self.options:
            names = (self.options["functions"] or "").split()
            for name in names:
                cmd += ["-function", name]
            if not names:
                cmd.append("-no-doc-sections")
        elif "internal" in self.options:
            cmd.append("-internal")
        elif "export" in self.options:
            cmd.append("-export")
        return cmd + [path]

    def run(self):
        if not self.config.kerneldoc_bin:
            raise self.error("kernel-doc: no kerneldoc_bin (make -C "
                             "Documentation html gives it)")
        rel = self.arguments[0]
        path = os.path.join(self.config.kerneldoc_srctree, rel)
        if not os.path.isfile(path):
            raise self.error("kernel-doc: no file %s" % path)
        # A change of the source rebuilds the page.
        self.env.note_dependency(os.path.abspath(path))
        cmd = self.command(path)
        try:
            res = subprocess.run(cmd, capture_output=True, text=True,
                                 check=False)
        except OSError as e:
            raise self.error("kernel-doc: %s: %s" % (cmd[1], e))
        where = self.get_location()
        for line in res.stderr.splitlines():
            logger.warning("kernel-doc: %s", line, location=where)
        if res.returncode != 0:
            raise self.error("kernel-doc: '%s' exited with %d"
                             % (" ".join(cmd), res.returncode))

        # kernel-doc marks where each comment starts in the source with
        # ".. LINENO N"; a message about a line then names the source.
        text, line = ViewList(), 0
        for out in res.stdout.splitlines():
            m = LINENO.match(out)
            if m:
                line = int(m.group(1)) - 1
                continue
            text.append(out.expandtabs(8), os.path.abspath(path), line)
            line += 1
        if not any(t.strip() for t in text):
            raise self.error("kernel-doc: nothing taken from %s" % rel)
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, text, holder)
        return holder.children


def html_links(app, doctree, docname):
    if app.builder.format != "html":
        return
    for ref in doctree.findall(nodes.reference):
        m = RST_LINK.match(ref.get("refuri", ""))
        if m:
            ref["refuri"] = m.group(1) + ".html" + (m.group(2) or "")


def setup(app):
    app.add_config_value("kerneldoc_bin", None, "env")
    app.add_config_value("kerneldoc_srctree", None, "env")
    app.add_directive("kernel-doc", KernelDoc)
    app.connect("doctree-resolved", html_links)
    return {"version": "1", "parallel_read_safe": True,
            "parallel_write_safe": True}

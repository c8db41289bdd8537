// Typesets the maths of a page with the vendored KaTeX (overrides/main.html
// loads both on pages that have maths). pymdownx.arithmatex, in its generic
// mode, leaves each formula as text in a span (inline, \( ... \)) or a div
// (display, \[ ... \]) of class "arithmatex"; KaTeX replaces the text with
// the typeset formula. A formula KaTeX cannot parse shows in red, with the
// class katex-error, which scripts/site_check.py looks for.
function renderMath(root) {
  for (const element of root.querySelectorAll(".arithmatex")) {
    const display = element.tagName === "DIV";
    const source = element.textContent.trim().slice(2, -2);
    katex.render(source, element, { displayMode: display, throwOnError: false });
  }
}

if (typeof document$ !== "undefined") {
  document$.subscribe(({ body }) => renderMath(body)); // Material, instant loading too
} else {
  document.addEventListener("DOMContentLoaded", () => renderMath(document.body));
}

// rune.nx's reference was one page (api/nx/) before it was split by family.
// An address of that page with an entry's anchor (api/nx/#rune.nx.sin) goes
// on to the entry, on its family's page: rune.nx's index keeps each old anchor
// as the id of its link to the entry (marked data-moved, scripts/mkdocs_hooks.py).
// An anchor inside an entry (#rune.nx.Tensor.sum) goes to the entry's page.
(function () {
  var anchor = decodeURIComponent(location.hash.slice(1));
  for (var name = anchor; name; name = name.slice(0, Math.max(name.lastIndexOf("."), 0))) {
    var link = document.getElementById(name);
    if (link && link.hasAttribute("data-moved")) {
      var target = new URL(link.href);
      if (name !== anchor) target.hash = anchor;
      location.replace(target.href);
      return;
    }
  }
})();

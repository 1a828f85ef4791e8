// tick's kernel.js: the classic Notebook (6) loads it from the kernelspec
// when a tick kernel starts (JupyterLab and nbconvert do not, and need
// nothing of it). Go is indented with tabs (gofmt): Notebook 6's theme draws
// every tab in a code cell as a grey arrow; here tabs are blank space, and
// Tab and Enter indent with a tab as gofmt does.
define(["require"], function (require) {
  "use strict";
  var tabs = { indentWithTabs: true, indentUnit: 4, tabSize: 4 };

  function setTabs(cell) {
    if (cell && cell.cell_type === "code" && cell.code_mirror) {
      Object.keys(tabs).forEach(function (k) { cell.code_mirror.setOption(k, tabs[k]); });
    }
  }

  return {
    onload: function () {
      if (!document.getElementById("tick-go-tabs")) {
        var style = document.createElement("style");
        style.id = "tick-go-tabs";
        style.textContent = ".cm-s-ipython span.cm-tab { background: none; }";
        document.head.appendChild(style);
      }
      require(["notebook/js/codecell"], function (codecell) {
        var cm = codecell.CodeCell.options_default.cm_config;
        Object.keys(tabs).forEach(function (k) { cm[k] = tabs[k]; });
      });
      var Jupyter = window.Jupyter;
      if (Jupyter && Jupyter.notebook) {
        Jupyter.notebook.get_cells().forEach(setTabs);
        Jupyter.notebook.events.on("create.Cell", function (_, data) { setTabs(data && data.cell); });
      }
    }
  };
});

// fitrank serve: small conveniences on top of pages that work without JavaScript.
// - selects in forms marked .autosubmit apply on change (their Apply button hides);
// - the quant explorer updates its panel from the chosen option's data attributes and keeps
//   the URL shareable (history.replaceState with ?quant=);
// - copy buttons copy their command.
'use strict';
document.documentElement.classList.add('js');
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('form.autosubmit select').forEach(function (sel) {
    sel.addEventListener('change', function () { sel.form.submit(); });
  });
  var quant = document.getElementById('quant-select');
  if (quant) {
    quant.addEventListener('change', function () {
      var opt = quant.options[quant.selectedIndex];
      ['memory', 'decode', 'grade', 'fit', 'quality'].forEach(function (f) {
        var el = document.querySelector('.quant-panel [data-field="' + f + '"]');
        if (el) el.textContent = opt.dataset[f] || '';
      });
      var url = new URL(window.location.href);
      url.searchParams.set('quant', quant.value);
      history.replaceState(null, '', url.toString());
    });
  }
  document.querySelectorAll('button.copy').forEach(function (b) {
    b.addEventListener('click', function () {
      var text = b.getAttribute('data-copy') || '';
      var done = function () { b.textContent = 'Copied'; setTimeout(function () { b.textContent = 'Copy'; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () {});
      } else {
        var ta = document.createElement('textarea');
        ta.value = text; document.body.appendChild(ta); ta.select();
        try { document.execCommand('copy'); done(); } catch (e) { /* selection stays for manual copy */ }
        document.body.removeChild(ta);
      }
    });
  });
});

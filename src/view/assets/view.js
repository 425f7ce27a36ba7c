// Filters apply as soon as a choice changes (the form also works without JavaScript).
document.querySelectorAll('form.filters select').forEach(function (s) {
  s.addEventListener('change', function () { s.form.submit(); });
});
// Scroll the rendering so that the highlighted record shows (the page itself stays put).
var hl = document.querySelector('pre .hl');
if (hl) {
  var pre = hl.closest('pre');
  pre.scrollTop = Math.max(0, hl.offsetTop - pre.offsetTop - 40);
}

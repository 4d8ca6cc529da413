// The replay stepped through: one step shown at a time, Previous and Next, a step per link.
// Without JavaScript every step stays shown, in order.
(function () {
  const steps = Array.from(document.querySelectorAll("section.step"));
  const links = Array.from(document.querySelectorAll(".stepper a[data-step]"));
  if (!steps.length) return;
  let current = 0;
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach((s, i) => { s.hidden = i !== current; });
    links.forEach((a, i) => a.classList.toggle("current", i === current));
    const label = document.getElementById("step-position");
    if (label) label.textContent = `Step ${current + 1} of ${steps.length}`;
  }
  document.getElementById("prev-step").addEventListener("click", () => show(current - 1));
  document.getElementById("next-step").addEventListener("click", () => show(current + 1));
  document.getElementById("all-steps").addEventListener("click", () => {
    steps.forEach((s) => { s.hidden = false; });
  });
  links.forEach((a, i) => a.addEventListener("click", (e) => { e.preventDefault(); show(i); }));
  // A link to a finding opens the step it sits under.
  const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
  const holder = target ? target.closest("section.step") : null;
  show(holder ? steps.indexOf(holder) : 0);
  if (target) target.scrollIntoView();
})();

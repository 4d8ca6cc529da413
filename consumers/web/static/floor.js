// Live alerts on the floor page, from the API's Server-Sent Events (/api/alerts/stream).
// Each "finding" event is put at the top of the list, and its table's row counts it.
(function () {
  const list = document.getElementById("alerts");
  const status = document.getElementById("live-status");
  if (!list || !window.EventSource) return;
  const source = new EventSource("/api/alerts/stream");
  source.onopen = () => { status.textContent = "live"; };
  source.onerror = () => { status.textContent = "reconnecting to live alerts…"; };
  source.addEventListener("finding", (event) => {
    const alert = JSON.parse(event.data);
    const none = list.querySelector("li.none");
    if (none) none.remove();
    const item = document.createElement("li");
    item.className = alert.severity;
    const link = document.createElement("a");
    link.href = `/findings/${encodeURIComponent(alert.finding_id)}`;
    link.textContent = alert.code;
    item.append(`${alert.severity.toUpperCase()} `, link,
      ` at ${alert.table_id}${alert.round_id ? ", round " + alert.round_id : ""}: ` +
      `${alert.title} (${alert.rule}); at stake $${alert.at_stake}`);
    list.prepend(item);
    const row = document.getElementById(`table-${alert.table_id}`);
    const count = row ? row.querySelector(".alerts .count") : null;
    if (count) count.textContent = String(Number(count.textContent) + 1);
  });
})();

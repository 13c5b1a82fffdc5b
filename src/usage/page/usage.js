// The usage page: asks the gateway for the pasted key's usage (the key in a header, never in the URL), then
// draws it with uPlot. The last answer is kept on window.usageData for tests.
(() => {
  const $ = (id) => document.getElementById(id);
  const SERIES = [
    { key: 'requests', label: 'Requests', stroke: '#1f5fa0' },
    { key: '429', label: '429 (any kind)', stroke: '#d9822b' },
    { key: 'clientErrors', label: 'Other 4xx', stroke: '#8e44ad' },
    { key: 'serverErrors', label: '5xx', stroke: '#a3262a' },
  ];
  let data;
  let view = 'minutes';
  let plot;

  const time = (ms) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const refusedTotal = (point) => Object.values(point.refused).reduce((a, b) => a + b, 0);

  function draw() {
    const points = data[view];
    const columns = [
      points.map((point) => point.startsAt / 1000),
      points.map((point) => point.requests),
      points.map(refusedTotal),
      points.map((point) => point.clientErrors),
      points.map((point) => point.serverErrors),
    ];
    plot?.destroy();
    const width = Math.min($('chart').clientWidth || 900, 1000);
    plot = new uPlot(
      {
        width,
        height: 300,
        series: [
          {},
          ...SERIES.map(({ label, stroke }) => ({ label, stroke, width: 2, points: { show: false } })),
        ],
        axes: [{}, { label: view === 'minutes' ? 'per minute' : 'per hour' }],
        scales: { y: { range: (_u, _min, max) => [0, Math.max(5, max)] } },
      },
      columns,
      $('chart'),
    );
    window.usageChart = { view, columns };
    $('show-minutes').setAttribute('aria-selected', String(view === 'minutes'));
    $('show-hours').setAttribute('aria-selected', String(view === 'hours'));
  }

  function show(usage) {
    data = usage;
    window.usageData = usage;
    $('plan').textContent = usage.key.plan;
    $('scopes').textContent = `key ${usage.key.prefix}…, scopes ${usage.key.scopes.join(', ')}`;
    $('minute-left').textContent = `${usage.quota.minute.remaining} of ${usage.quota.minute.limit} left`;
    $('minute-reset').textContent = `resets at ${time(Date.parse(usage.quota.minute.resetAt))}`;
    $('day-left').textContent = `${usage.quota.day.remaining} of ${usage.quota.day.limit} left`;
    $('day-reset').textContent = `resets ${new Date(usage.quota.day.resetAt).toLocaleString()}`;
    $('subscriptions').textContent = `${usage.subscriptions.open} of ${usage.subscriptions.max}`;
    $('subscriptions-note').textContent = 'open now, of those you may hold at once';
    const body = $('operations').querySelector('tbody');
    body.replaceChildren(
      ...usage.topOperations.map(({ api, operation, requests }) => {
        const row = document.createElement('tr');
        for (const text of [api, operation, String(requests)]) {
          const cell = document.createElement('td');
          cell.textContent = text;
          row.append(cell);
        }
        return row;
      }),
    );
    $('usage').hidden = false;
    draw();
  }

  $('key-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('error').hidden = true;
    const response = await fetch('/usage', {
      headers: { accept: 'application/json', 'x-api-key': $('key').value.trim() },
      cache: 'no-store',
    });
    const body = await response.json();
    if (!response.ok) {
      $('usage').hidden = true;
      $('error').textContent = body.message;
      $('error').hidden = false;
      return;
    }
    show(body);
  });
  $('show-minutes').addEventListener('click', () => {
    view = 'minutes';
    if (data) draw();
  });
  $('show-hours').addEventListener('click', () => {
    view = 'hours';
    if (data) draw();
  });
})();

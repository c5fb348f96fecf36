// @ts-check
/**
 * Draws the leaderboard page's charts: runs in the page, after Chart.js's UMD build, and turns each chart
 * spec of the page's `leaderboard-data` into a Chart.js chart. `leaderboard-page.ts` inlines this file as
 * it is (plain JavaScript, so that the page needs no build step); the type checker reads it through
 * `// @ts-check` and the JSDoc types below.
 */
;(() => {
  /** @typedef {import('../../harness/scoring/leaderboard-chart.ts').ChartSpec} ChartSpec */
  /** @typedef {import('../../harness/scoring/leaderboard-chart.ts').IntervalChart} IntervalChart */
  /** @typedef {import('../../harness/scoring/leaderboard-chart.ts').SizeChart} SizeChart */
  /** @typedef {import('../../harness/scoring/leaderboard-chart.ts').RelationChart} RelationChart */
  /** @typedef {{ x: number, y: number, model: string }} ModelPoint */
  /** @typedef {{ x: number, y: number, width: number, height: number }} Box */

  /** @type {typeof import('chart.js').Chart} */
  const Chart = /** @type {{ Chart: typeof import('chart.js').Chart }} */ (/** @type {unknown} */ (window)).Chart
  const dataElement = document.getElementById('leaderboard-data')
  /** @type {{ charts: ChartSpec[] }} */
  const { charts } = JSON.parse(dataElement?.textContent ?? '{ "charts": [] }')
  Chart.defaults.animation = false
  Chart.defaults.font.size = 11
  const blue = '#0969da'
  const orange = '#bc4c00'
  const grey = 'rgba(9, 105, 218, 0.28)'

  /** @param {Box} a @param {Box} b */
  const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

  /** Labels the best-for-size frontier's points with their models. @type {import('chart.js').Plugin<'scatter'>} */
  const frontierLabels = {
    id: 'frontierLabels',
    afterDatasetsDraw(chart) {
      const meta = chart.getDatasetMeta(1)
      const frontier = /** @type {ModelPoint[]} */ (/** @type {unknown} */ (chart.data.datasets[1]?.data ?? []))
      const { ctx } = chart
      ctx.save()
      ctx.font = '11px system-ui, sans-serif'
      ctx.fillStyle = orange
      // A label that would cover one already drawn is left to the tooltip.
      /** @type {Box[]} */
      const drawn = []
      meta.data.forEach((point, index) => {
        const text = frontier[index]?.model ?? ''
        const box = { x: point.x + 6, y: point.y - 16, width: ctx.measureText(text).width, height: 13 }
        if (drawn.some((other) => overlaps(box, other))) return
        drawn.push(box)
        ctx.fillText(text, box.x, point.y - 6)
      })
      ctx.restore()
    },
  }

  /** Each model's score with its 95% interval, best first. @param {IntervalChart} spec */
  const intervalChart = (spec) =>
    /** @type {import('chart.js').ChartConfiguration<'bar' | 'line'>} */ ({
      type: 'bar',
      data: {
        labels: spec.points.map((point) => point.model),
        datasets: [
          {
            type: 'bar',
            label: '95% interval',
            data: spec.points.map((point) => (point.low === undefined ? null : [point.low, point.high])),
            backgroundColor: grey,
            borderColor: blue,
            borderWidth: 1,
            barPercentage: 0.5,
            categoryPercentage: 0.9,
          },
          {
            type: 'line',
            label: 'score',
            data: spec.points.map((point) => point.value),
            showLine: false,
            pointStyle: 'rectRot',
            pointRadius: 5,
            pointBackgroundColor: blue,
            borderColor: blue,
          },
        ],
      },
      options: {
        indexAxis: 'y',
        maintainAspectRatio: false,
        scales: { y: { ticks: { autoSkip: false } }, x: { beginAtZero: true } },
        plugins: {
          legend: { position: 'top' },
          tooltip: { callbacks: { label: (item) => spec.points[item.dataIndex]?.display ?? '' } },
        },
      },
    })

  /** A score against the memory the model needs, with the best-for-size frontier. @param {SizeChart} spec */
  const sizeChart = (spec) => {
    /** @param {SizeChart['points'][number]} point @returns {ModelPoint} */
    const toPoint = (point) => ({ x: point.memory, y: point.value, model: point.model })
    const frontier = spec.points
      .filter((point) => point.best)
      .sort((a, b) => a.memory - b.memory)
      .map(toPoint)
    return /** @type {import('chart.js').ChartConfiguration<'scatter', ModelPoint[]>} */ ({
      type: 'scatter',
      data: {
        datasets: [
          { label: 'model', data: spec.points.map(toPoint), backgroundColor: grey, borderColor: blue, pointRadius: 4 },
          {
            label: 'best for its size',
            data: frontier,
            showLine: true,
            stepped: 'after',
            borderColor: orange,
            backgroundColor: orange,
            pointRadius: 5,
          },
        ],
      },
      options: {
        maintainAspectRatio: false,
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: 'memory (GB)' } },
          y: { beginAtZero: true, title: { display: true, text: spec.score } },
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => {
                const raw = /** @type {ModelPoint} */ (item.raw)
                return raw.model + ': ' + raw.y + ' at ' + raw.x.toFixed(1) + ' GB'
              },
            },
          },
        },
      },
      plugins: [frontierLabels],
    })
  }

  /** One model's accuracy per relation class. @param {RelationChart} spec */
  const relationChart = (spec) =>
    /** @type {import('chart.js').ChartConfiguration<'bar'>} */ ({
      type: 'bar',
      data: {
        labels: spec.relations,
        datasets: [{ label: 'accuracy (%)', data: spec.accuracies, backgroundColor: blue }],
      },
      options: {
        maintainAspectRatio: false,
        scales: { y: { min: 0, max: 100 }, x: { ticks: { autoSkip: false, maxRotation: 60, minRotation: 45 } } },
        plugins: { legend: { display: false } },
      },
    })

  /** @param {HTMLCanvasElement} canvas @param {ChartSpec} spec */
  const draw = (canvas, spec) => {
    if (spec.kind === 'interval') new Chart(canvas, intervalChart(spec))
    else if (spec.kind === 'size') new Chart(canvas, sizeChart(spec))
    else new Chart(canvas, relationChart(spec))
  }

  for (const spec of charts) {
    const canvas = document.getElementById(spec.id)
    if (canvas instanceof HTMLCanvasElement) draw(canvas, spec)
  }
  document.body.dataset.chartsDrawn = String(charts.length)
})()

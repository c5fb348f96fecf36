import { createConnection, type Socket } from 'node:net'
import { localLedger, type Ledger, type LedgerState, type Reservation } from './cost-budget.ts'
import { processWide } from './process-wide.ts'

/**
 * The run's one ledger lives in the slot server's process (harness/run-wide/run-slots.ts), so that the cost limit holds
 * across every worker: a worker opens a connection per request, asks to reserve it (its worst case and its kind:
 * the ledger reserves what requests of the kind have cost so far), and, when the request ends, says what it cost
 * and closes. A connection that closes without saying (its
 * worker died) is charged its worst case: the provider may have billed it.
 */
/** The ledger the slot server keeps, made by the first request; the reporters read it (harness/run-wide/process-wide.ts). */
const served = processWide('run-ledger', (): { ledger?: ReturnType<typeof localLedger> } => ({}))

/** What the run's ledger says now, in the slot server's process; undefined when the run has no cost limit. */
export function runLedgerState(): LedgerState | undefined {
  return served.ledger?.state()
}

export type BudgetMessage = { reserve: number; kind: string; limit: number } | { cost: number }

/** The slot server's side of one worker's connection about one request. */
export function serveBudget(
  socket: Socket,
  first: { reserve: number; kind: string; limit: number },
): (message: BudgetMessage) => void {
  const ledger = (served.ledger ??= localLedger(first.limit))
  const worstCase = first.reserve
  let held: Reservation | undefined
  let closed = false
  void ledger.reserve(worstCase, first.kind).then((reservation) => {
    // A worker that died while its request waited: its reservation goes back unspent.
    if (closed) return reservation?.settle(0)
    held = reservation
    socket.write(`${JSON.stringify({ granted: reservation !== undefined, ...ledger.state() })}\n`)
  })
  socket.once('close', () => {
    closed = true
    held?.settle(worstCase)
    held = undefined
  })
  return (message) => {
    if (!('cost' in message)) return
    held?.settle(message.cost)
    held = undefined
  }
}

/** A worker's view of the run's ledger at `address`. */
export function runWideLedger(address: string, limit: number): Ledger {
  let last: LedgerState = { limit, spent: 0, inFlight: 0, refused: 0 }
  return {
    reserve: (worstCase, kind) =>
      new Promise((resolve, reject) => {
        const connection = createConnection(address)
        connection.setEncoding('utf8')
        let buffer = ''
        let answered = false
        connection.once('connect', () => connection.write(`${JSON.stringify({ reserve: worstCase, kind, limit })}\n`))
        connection.on('data', (chunk: string) => {
          buffer += chunk
          const end = buffer.indexOf('\n')
          if (end < 0 || answered) return
          answered = true
          const { granted, ...state } = JSON.parse(buffer.slice(0, end)) as LedgerState & { granted: boolean }
          last = state
          if (!granted) {
            connection.destroy()
            return resolve(undefined)
          }
          resolve({
            settle: (cost) => {
              connection.end(`${JSON.stringify({ cost })}\n`)
            },
          })
        })
        connection.on('error', (error) => {
          if (answered) return
          answered = true
          reject(
            new Error(`The run's slot server at ${address} is not reachable for the cost limit (${error.message}).`),
          )
        })
      }),
    state: () => last,
  }
}

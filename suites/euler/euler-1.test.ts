import { declareEuler } from './euler.ts'

await declareEuler({ index: 1, count: 6 })

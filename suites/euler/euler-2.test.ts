import { declareEuler } from './euler.ts'

await declareEuler({ index: 2, count: 6 })

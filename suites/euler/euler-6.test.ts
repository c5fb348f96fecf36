import { declareEuler } from './euler.ts'

await declareEuler({ index: 6, count: 6 })

import { declareEuler } from './euler.ts'

await declareEuler({ index: 5, count: 6 })

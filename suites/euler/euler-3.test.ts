import { declareEuler } from './euler.ts'

await declareEuler({ index: 3, count: 6 })

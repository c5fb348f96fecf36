import { declareEuler } from './euler.ts'

await declareEuler({ index: 4, count: 6 })

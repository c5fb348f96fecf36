import { declareHumanEval } from './humaneval.ts'

await declareHumanEval({ index: 1, count: 6 })

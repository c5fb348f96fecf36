import { declareHumanEval } from './humaneval.ts'

await declareHumanEval({ index: 5, count: 6 })

import { declareHumanEval } from './humaneval.ts'

await declareHumanEval({ index: 2, count: 6 })

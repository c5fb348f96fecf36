import { declareHumanEval } from './humaneval.ts'

await declareHumanEval({ index: 3, count: 6 })

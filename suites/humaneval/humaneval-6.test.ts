import { declareHumanEval } from './humaneval.ts'

await declareHumanEval({ index: 6, count: 6 })

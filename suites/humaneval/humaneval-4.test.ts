import { declareHumanEval } from './humaneval.ts'

await declareHumanEval({ index: 4, count: 6 })

import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 5, count: 12 })

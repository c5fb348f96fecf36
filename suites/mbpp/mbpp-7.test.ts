import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 7, count: 12 })

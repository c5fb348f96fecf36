import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 9, count: 12 })

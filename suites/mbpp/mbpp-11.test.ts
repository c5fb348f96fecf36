import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 11, count: 12 })

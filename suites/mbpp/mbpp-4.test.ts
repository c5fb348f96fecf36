import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 4, count: 12 })

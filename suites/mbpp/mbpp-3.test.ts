import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 3, count: 12 })

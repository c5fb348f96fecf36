import { declareSwebench } from './swebench.ts'

await declareSwebench({ index: 1, count: 6 })

import { declareSwebench } from './swebench.ts'

await declareSwebench({ index: 2, count: 6 })

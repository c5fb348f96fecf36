import { declareSwebench } from './swebench.ts'

await declareSwebench({ index: 6, count: 6 })

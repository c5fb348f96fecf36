import { declareSwebench } from './swebench.ts'

await declareSwebench({ index: 5, count: 6 })

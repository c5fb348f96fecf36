import { declareSwebench } from './swebench.ts'

await declareSwebench({ index: 3, count: 6 })

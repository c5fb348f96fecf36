import { declareSwebench } from './swebench.ts'

await declareSwebench({ index: 4, count: 6 })

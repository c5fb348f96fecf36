import { declareFarel } from './farel.ts'

declareFarel({ index: 6, count: 6 })

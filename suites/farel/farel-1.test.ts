import { declareFarel } from './farel.ts'

declareFarel({ index: 1, count: 6 })

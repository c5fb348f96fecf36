import { declareFarel } from './farel.ts'

declareFarel({ index: 5, count: 6 })

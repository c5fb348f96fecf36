import { declareFarel } from './farel.ts'

declareFarel({ index: 4, count: 6 })

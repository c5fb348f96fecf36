import { declareFarel } from './farel.ts'

declareFarel({ index: 2, count: 6 })

import { declareFarel } from './farel.ts'

declareFarel({ index: 3, count: 6 })

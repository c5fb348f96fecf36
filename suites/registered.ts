// Every suite, one line each: adding a suite is its folder (with its suite.ts) and its line here.
export { bigcodebench } from './bigcodebench/suite.ts'
export { demo } from './demo/suite.ts'
export { euler } from './euler/suite.ts'
export { farel } from './farel/suite.ts'
export { humaneval } from './humaneval/suite.ts'
export { mbpp } from './mbpp/suite.ts'
export { swebench } from './swebench/suite.ts'
